/// Templates of the operator's pages: schema, faults, accounts and tokens.
enum ControlTemplates {
    static let all: [(String, String)] = [
        ("schema", """
            <p>Showing {{#isDevelopment}}development{{/isDevelopment}}{{^isDevelopment}}production{{/isDevelopment}}. <a href="{{other}}">Show {{otherName}}</a></p>
            {{^recordTypes}}<p>No record types yet: development learns them from the records saved.</p>{{/recordTypes}}
            {{#recordTypes}}<h2>{{name}}</h2><div class="scroll"><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th>
            <th scope="col">Indexes</th></tr></thead><tbody>{{#fields}}<tr><td>{{name}}</td><td>{{type}}</td><td>{{indexes}}</td></tr>{{/fields}}
            </tbody></table></div>{{/recordTypes}}
            <form method="post" action="{{action}}"><fieldset><legend>Add an index</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="indexType">Record type</label><input id="indexType" name="recordType" required></div>
            <div><label for="indexField">Field</label><input id="indexField" name="field" required></div>
            <div><label for="indexKind">Index</label><select id="indexKind" name="index">{{#kinds}}<option value="{{kind}}">{{kind}}</option>{{/kinds}}</select></div>
            <div><button type="submit" name="operation" value="add">Add index</button></div></div></fieldset></form>
            {{#isDevelopment}}<form method="post" action="{{action}}"><input type="hidden" name="formToken" value="{{formToken}}">
            <input type="hidden" name="back" value="{{back}}">
            <p><button type="submit" name="operation" value="deploy">Deploy the development schema to production</button></p></form>{{/isDevelopment}}
            <h2>Schema file</h2><p><a href="{{exportPath}}" download>Download the {{environmentName}} schema (.ckdb)</a>:
            the CloudKit Schema Language, for <code>xcrun cktool import-schema</code>.</p>
            {{#isDevelopment}}<form method="post" action="{{importAction}}"><fieldset><legend>Import a schema file</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <p class="hint">As <code>xcrun cktool export-schema</code> writes it. It replaces the development schema: types, fields, indexes
            and security roles. A file with an error, or one that would drop what production has, is refused whole.</p>
            <label for="schemaPick">The .ckdb file</label><input id="schemaPick" type="file" accept=".ckdb,text/plain" data-fills="schemaFile">
            <label for="schemaFile">Its text (filled in from the file, or pasted)</label><textarea id="schemaFile" name="schema" rows="8" required></textarea>
            <p><button type="submit" name="operation" value="import">Import into development</button></p></fieldset></form>{{/isDevelopment}}
            """),
        ("faults", """
            {{#buggify}}<p>Buggify: {{buggify}}</p>{{/buggify}}
            <h2>Rules</h2>{{^rules}}<p>No fault rules.</p>{{/rules}}
            <div class="scroll"><table><thead><tr><th scope="col">Rule</th><th scope="col">Matches</th><th scope="col">Does</th>
            <th scope="col">Limits</th><th scope="col">Matched</th><th scope="col">Fired</th><th scope="col"></th></tr></thead><tbody>
            {{#rules}}<tr><td>{{faultID}}{{#retired}} <span class="tag">retired</span>{{/retired}}</td><td>{{match}}</td><td>{{action}}</td><td>{{limits}}</td>
            <td>{{matched}}</td><td>{{fired}}</td><td><form method="post" action="{{postPath}}" class="inline">
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <input type="hidden" name="faultID" value="{{faultID}}"><button type="submit" name="operation" value="remove">Remove {{faultID}}</button></form></td></tr>{{/rules}}
            </tbody></table></div>
            <form method="post" action="{{postPath}}"><fieldset><legend>Add a fault rule</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="effect">Effect</label><select id="effect" name="effect"><option value="error">Fail the request</option>
            <option value="itemError">Fail matching records</option><option value="latency">Answer late</option>
            <option value="drop">Commit, then drop the answer</option></select></div>
            <div><label for="code">Error code</label><select id="code" name="code">{{#codes}}<option value="{{code}}">{{code}}</option>{{/codes}}</select></div>
            <div><label for="retryAfter">Retry after (s)</label><input id="retryAfter" name="retryAfter" inputmode="numeric"></div>
            <div><label for="latencyMs">Latency (ms)</label><input id="latencyMs" name="latencyMs" inputmode="numeric"></div></div>
            <div class="row"><div><label for="endpoint">Endpoint</label><input id="endpoint" name="endpoint" placeholder="records/modify"></div>
            <div><label for="faultDatabase">Database</label><select id="faultDatabase" name="database"><option value="">Any</option>
            <option>private</option><option>shared</option><option>public</option></select></div>
            <div><label for="faultAccount">Account</label><select id="faultAccount" name="account"><option value="">Any</option>
            {{#accounts}}<option value="{{value}}">{{label}}</option>{{/accounts}}</select></div>
            <div><label for="faultZone">Zone</label><input id="faultZone" name="zone"></div>
            <div><label for="faultType">Record type</label><input id="faultType" name="recordType"></div></div>
            <div class="row"><div><label for="count">Fire this many times</label><input id="count" name="count" inputmode="numeric"></div>
            <div><label for="probability">Probability (0–1)</label><input id="probability" name="probability" inputmode="decimal"></div>
            <div><button type="submit" name="operation" value="add">Add rule</button></div></div></fieldset></form>
            <form method="post" action="{{postPath}}"><input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <p><button type="submit" name="operation" value="clear" class="danger">Clear every rule</button></p></form>
            """),
        ("accounts", """
            <ul>{{#accounts}}<li><a href="{{href}}">{{label}}</a> <span class="mono hint">{{value}}</span></li>{{/accounts}}</ul>
            <form method="post" action="{{action}}"><fieldset><legend>Create an account</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="email">Email</label><input id="email" name="email" type="email" required></div>
            <div><label for="givenName">Given name</label><input id="givenName" name="givenName"></div>
            <div><label for="familyName">Family name</label><input id="familyName" name="familyName"></div>
            <div><label for="password">Sign-in password (optional)</label><input id="password" name="password" type="password" autocomplete="new-password"></div></div>
            <p><label class="check"><input type="checkbox" name="discoverable"> Discoverable by others</label></p>
            <p><button type="submit" name="operation" value="create">Create account</button></p></fieldset></form>
            <form method="post" action="{{action}}"><fieldset><legend>Mint a web auth token for {{container}}</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="tokenAccount">Account</label><select id="tokenAccount" name="account">
            {{#accounts}}<option value="{{value}}">{{label}}</option>{{/accounts}}</select></div>
            <div><label for="hours">Valid for (hours; empty: until revoked)</label><input id="hours" name="hours" inputmode="numeric"></div>
            <div><button type="submit" name="operation" value="token">Mint token</button></div></div></fieldset></form>
            <form method="post" action="{{action}}"><fieldset><legend>Mint an API token for {{container}} ({{environment}})</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="mintOrigins">Allowed origins (space-separated; empty: any)</label>
            <input id="mintOrigins" name="origins" placeholder="https://app.example.com" autocomplete="off"></div>
            <div><label for="mintCallback">Sign-in callback URL</label><input id="mintCallback" name="callback" autocomplete="off"></div>
            <div><button type="submit" name="operation" value="apiToken">Mint API token</button></div></div>
            <p class="hint">The sign-in page hands web auth tokens only to these: postMessage to an allowed origin, a redirect to the callback.</p>
            </fieldset></form>
            <form method="post" action="{{action}}"><fieldset><legend>Where an API token's sign-ins may go</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="settingsToken">API token</label><input id="settingsToken" name="apiToken" required autocomplete="off"></div>
            <div><label for="settingsOrigins">Allowed origins (space-separated)</label><input id="settingsOrigins" name="origins" autocomplete="off"></div>
            <div><label for="settingsCallback">Sign-in callback URL (empty: none)</label><input id="settingsCallback" name="callback" autocomplete="off"></div>
            <div><button type="submit" name="operation" value="apiTokenSettings">Save</button></div></div></fieldset></form>
            <form method="post" action="{{action}}"><fieldset><legend>Revoke a web auth token</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="revokeToken">Token</label><input id="revokeToken" name="token" required autocomplete="off"></div>
            <div><button type="submit" name="operation" value="revoke">Revoke</button></div></div></fieldset></form>
            <form method="post" action="{{action}}"><fieldset><legend>Storage quota</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="quotaAccount">Account</label><select id="quotaAccount" name="account">
            {{#accounts}}<option value="{{value}}">{{label}}</option>{{/accounts}}</select></div>
            <div><label for="quotaBytes">Bytes (empty: no quota)</label><input id="quotaBytes" name="bytes" inputmode="numeric"></div>
            <div><button type="submit" name="operation" value="quota">Set quota</button></div></div></fieldset></form>
            <form method="post" action="{{action}}"><fieldset><legend>Token time travel: compact a database</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <div class="row"><div><label for="compactAccount">Account</label><select id="compactAccount" name="account">
            {{#accounts}}<option value="{{value}}">{{label}}</option>{{/accounts}}</select></div>
            <div><label for="compactDatabase">Database</label><select id="compactDatabase" name="database">
            <option value="private">Private</option><option value="shared">Shared</option></select></div>
            <div><button type="submit" name="operation" value="compact">Compact</button></div></div>
            <p class="hint">Older database and zone change tokens then answer CHANGE_TOKEN_EXPIRED, as after a long time offline.</p>
            </fieldset></form>
            """),
        ("data", """
            <p class="hint">Test fixtures for {{container}} ({{environment}}): every account's private zones and the public database.
            Share records and asset fields are not exported.</p>
            <h2>Export</h2><p><a href="{{exportPath}}" download>Download the records as JSON</a></p>
            <form method="post" action="{{action}}"><fieldset><legend>Import an export</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <label for="document">The export's JSON</label><textarea id="document" name="document" rows="6" required></textarea>
            <p><button type="submit" name="operation" value="import">Import</button></p></fieldset></form>
            <h2>Reset</h2>
            <form method="post" action="{{action}}"><fieldset><legend>One account</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <label for="resetAccount">Account</label><select id="resetAccount" name="account">{{#accounts}}<option value="{{value}}">{{label}}</option>{{/accounts}}</select>
            <p><button type="submit" name="operation" value="resetAccount" class="danger"
            data-confirm="Delete this account's zones, records and subscriptions in {{container}} ({{environment}})?">Reset the account's data</button></p></fieldset></form>
            <form method="post" action="{{action}}"><input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <p><button type="submit" name="operation" value="reset" class="danger"
            data-confirm="Delete every account's zones, records and subscriptions, and the public database's records, in {{container}} ({{environment}})?">Reset all data of {{environment}}</button>
            <span class="hint">Containers, API tokens and accounts stay.</span></p></form>
            """),
    ]
}
