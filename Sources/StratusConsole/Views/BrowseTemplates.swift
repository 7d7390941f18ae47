/// Templates of the browsing pages: home, account, database, zone.
enum BrowseTemplates {
    static let all: [(String, String)] = [
        ("home", """
            <section aria-labelledby="containers"><h2 id="containers">Container</h2>
            <p>{{#containers}}{{#current}}<strong>{{name}}</strong>{{/current}}{{^current}}<a href="{{href}}">{{name}}</a>{{/current}} {{/containers}}</p>
            <p>Environment: {{#environments}}{{#current}}<strong>{{name}}</strong>{{/current}}{{^current}}<a href="{{href}}">{{name}}</a>{{/current}} {{/environments}}</p>
            <form method="post" action="/console/containers"><fieldset><legend>Your own container</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="/console">
            <label for="identifier">Container identifier</label><input id="identifier" name="identifier" required placeholder="iCloud.com.you.App" pattern="[A-Za-z0-9._-]+">
            <p><button type="submit">Create container</button> <span class="hint">with a development API token, shown once</span></p></fieldset></form></section>
            <section aria-labelledby="people"><h2 id="people">Accounts</h2><p class="hint">Open an account to act as it: what you do there, it does.</p>
            <div class="scroll"><table><thead><tr><th scope="col">Account</th><th scope="col">User record name</th></tr></thead><tbody>
            {{#accounts}}<tr><td><a href="{{href}}">{{label}}</a></td><td class="mono">{{userRecordName}}</td></tr>{{/accounts}}
            </tbody></table></div></section>
            """),
        ("account", """
            <p class="mono">{{userRecordName}}</p>
            <h2>Databases</h2><ul>{{#databases}}<li><a href="{{href}}">{{label}}</a></li>{{/databases}}</ul>
            <form method="post" action="{{acceptPath}}"><fieldset><legend>Accept a share</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <label for="shortGUID">Short GUID or share URL</label><input id="shortGUID" name="shortGUID" required>
            <p><button type="submit">Accept as this account</button></p></fieldset></form>
            """),
        ("database", """
            <h2>Zones</h2>{{^zones}}<p>No zones yet.</p>{{/zones}}
            <ul>{{#zones}}<li><a href="{{href}}">{{name}}</a>{{#owner}} <span class="hint">owned by {{owner}}</span>{{/owner}}</li>{{/zones}}</ul>
            {{#mayCreateZones}}<form method="post" action="{{createPath}}"><fieldset><legend>Create a zone</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <input type="hidden" name="operation" value="create">
            <label for="zoneName">Zone name</label><input id="zoneName" name="zone" required>
            <p><button type="submit">Create zone</button></p></fieldset></form>{{/mayCreateZones}}
            {{#isShared}}<p class="hint">Zones others shared with this account and it accepted.</p>{{/isShared}}
            """),
        ("zone", """
            <form method="get" action="{{sortPath}}" class="row"><input type="hidden" name="zone" value="{{zoneField}}">
            <input type="hidden" name="owner" value="{{ownerField}}"><div><label for="sort">Sort by</label>
            <select id="sort" name="sort">{{#sorts}}<option value="{{key}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/sorts}}</select></div>
            <div><button type="submit">Sort</button> <a href="{{queryPath}}">Query this zone</a></div></form>
            <h2>Records</h2>{{#isEmpty}}<p>No records.</p>{{/isEmpty}}
            <div class="scroll"><table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Fields</th>
            <th scope="col">Last modified</th></tr></thead><tbody>
            {{#records}}<tr><td><a href="{{href}}">{{name}}</a>{{#isShare}} <span class="tag">share</span>{{/isShare}}</td><td>{{type}}</td>
            <td>{{fieldsText}}</td><td>{{modified}} by {{modifiedBy}}</td></tr>{{/records}}</tbody></table></div>
            {{#next}}<p><a href="{{next}}">Next page</a></p>{{/next}}
            """ + RecordTemplates.saveForm + """
            {{#isOwner}}<form method="post" action="{{sharePath}}"><fieldset><legend>Share this zone</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <input type="hidden" name="operation" value="create"><input type="hidden" name="zone" value="{{zoneField}}">
            <div class="row"><div><label for="zoneShareEmail">Invite (email)</label><input id="zoneShareEmail" name="email" type="email"></div>
            <div><label for="zoneSharePermission">Permission</label><select id="zoneSharePermission" name="permission">
            {{#participants}}<option value="{{value}}">{{label}}</option>{{/participants}}</select></div>
            <div><button type="submit">Share zone</button></div></div>
            <p class="hint">Makes the zone-wide share (<a href="{{zoneShare}}">cloudkit.zoneshare</a>) if there is none, and invites the person.</p>
            </fieldset></form>{{/isOwner}}
            {{#isPrivate}}<form method="post" action="{{toolsPath}}"><fieldset><legend>Zone tools</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <input type="hidden" name="zone" value="{{zoneField}}">
            <p><button type="submit" name="operation" value="compact">Expire older change tokens (compact)</button>
            <button type="submit" name="operation" value="reset" data-confirm="Reset zone {{zoneField}}? Every record in it is deleted, as after an encrypted-data reset.">Reset the zone (encrypted data reset)</button></p></fieldset></form>
            <form method="post" action="{{zonesPath}}"><input type="hidden" name="formToken" value="{{formToken}}">
            <input type="hidden" name="back" value="{{back}}"><input type="hidden" name="zone" value="{{zoneField}}">
            <p><button type="submit" name="operation" value="delete" class="danger" data-confirm="Delete zone {{zoneField}} and every record in it?">Delete this zone</button></p></form>{{/isPrivate}}
            """),
    ]
}
