/// The page around every console page, and the sign-in page.
enum LayoutTemplates {
    static let head = """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Stratus console</title>
        <link rel="stylesheet" href="/console/static/console.css">
        <script type="module" src="/console/static/console.js"></script></head>
        """

    static let all: [(String, String)] = [
        ("layout", head + """
            <body data-form-token="{{formToken}}"><a class="skip" href="#main">Skip to the content</a>
            <header class="top"><nav aria-label="Console">
            <a href="{{home}}">Home</a> <a href="{{sideBySide}}">Side by side</a> <a href="{{timeline}}">Timeline</a> <a href="{{requests}}">Requests</a>
            <a href="{{schema}}">Schema</a> <a href="{{faults}}">Faults</a> <a href="{{accounts}}">Accounts and tokens</a> <a href="{{data}}">Data</a></nav>
            <span class="where">{{container}} · {{environment}}</span>
            <form method="post" action="/console/sign-out" class="inline"><input type="hidden" name="formToken" value="{{formToken}}">
            <button type="submit">Sign out</button></form></header>
            <nav aria-label="Breadcrumb" class="crumbs"><ol>{{#crumbs}}<li><a href="{{href}}">{{label}}</a></li>{{/crumbs}}</ol></nav>
            <main id="main"><h1>{{title}}</h1>
            {{#notice}}<p class="notice{{#isError}} error{{/isError}}" role="{{#isError}}alert{{/isError}}{{^isError}}status{{/isError}}">{{text}}</p>{{/notice}}
            {{{body}}}</main></body></html>
            """),
        ("signIn", head + """
            <body><main id="main" class="narrow"><h1>Stratus console</h1>
            {{#error}}<p class="notice error" role="alert">{{error}}</p>{{/error}}
            {{#signedOut}}<p class="notice" role="status">You are signed out.</p>{{/signedOut}}
            <form method="post" action="/console/sign-in">
            <label for="adminToken">Admin token</label>
            <input id="adminToken" name="adminToken" type="password" autocomplete="current-password" required autofocus>
            <p class="hint">The admin token <code>stratus serve</code> printed (with <code>--dev</code>, in <code>dev-credentials.json</code>).
            It stays on the server: the browser keeps only a session cookie.</p>
            <p><button type="submit">Sign in</button></p></form>
            {{#localSignIn}}<form method="post" action="/console/sign-in"><input type="hidden" name="local" value="1">
            <p><button type="submit">Sign in on this machine</button> <span class="hint">a development server, on this computer: no token to paste</span></p></form>{{/localSignIn}}
            </main></body></html>
            """),
        ("message", """
            <p class="notice error" role="alert">{{message}}</p>
            {{#back}}<p><a href="{{back}}">Back</a></p>{{/back}}
            """),
    ]
}
