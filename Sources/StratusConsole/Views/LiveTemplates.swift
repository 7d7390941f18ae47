/// Templates of the live pages: side by side with its panes, and the timeline.
enum LiveTemplates {
    static let all: [(String, String)] = [
        ("sideBySide", """
            <details{{^anyOpen}} open{{/anyOpen}}><summary>Choose the two panes</summary>
            <form method="get" action="{{action}}" class="panes">{{#panes}}<fieldset><legend>{{label}} pane</legend>
            <label for="{{side}}u">Account</label><select id="{{side}}u" name="{{side}}u">
            {{#accounts}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/accounts}}</select>
            <label for="{{side}}s">Database</label><select id="{{side}}s" name="{{side}}s">
            {{#databases}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/databases}}</select>
            <label for="{{side}}z">Zone</label><input id="{{side}}z" name="{{side}}z" value="{{zone}}" list="{{side}}zones" autocomplete="off">
            <datalist id="{{side}}zones">{{#zoneNames}}<option value="{{.}}">{{/zoneNames}}</datalist>
            <label for="{{side}}o">Zone owner (shared database)</label><select id="{{side}}o" name="{{side}}o">
            {{#owners}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/owners}}</select>
            </fieldset>{{/panes}}<p><button type="submit">Show side by side</button></p></form></details>
            <div class="panes">{{#panes}}{{#open}}<section class="pane" data-pane data-src="{{src}}" data-watch="{{watch}}" data-user="{{user}}"
            data-database="{{database}}" aria-live="polite" aria-labelledby="pane-{{side}}"><h2 id="pane-{{side}}">{{title}}</h2>
            <div data-pane-body>{{{body}}}</div></section>{{/open}}{{/panes}}</div>
            """),
        ("pane", """
            {{#notice}}<p class="notice{{#isError}} error{{/isError}}" role="{{#isError}}alert{{/isError}}{{^isError}}status{{/isError}}">{{text}}</p>{{/notice}}
            {{#hasZone}}<p><a href="{{zoneHref}}">Open the zone</a></p><div class="scroll"><table><thead><tr><th scope="col">Record</th>
            <th scope="col">Fields</th><th scope="col">Modified by</th></tr></thead><tbody>
            {{#records}}<tr data-record="{{name}}"><td><a href="{{href}}">{{name}}</a></td><td>{{fieldsText}}</td><td>{{modifiedBy}}</td></tr>{{/records}}
            </tbody></table></div>{{^records}}<p>No records.</p>{{/records}}
            """ + RecordTemplates.saveForm + """
            {{/hasZone}}{{^hasZone}}<p>Choose a zone: {{#zones}}<code>{{.}}</code> {{/zones}}{{^zones}}this database has none.{{/zones}}</p>{{/hasZone}}
            """),
        ("timeline", """
            <form method="get" action="{{action}}" class="row"><div><label for="account">Account</label><select id="account" name="account">
            <option value="">Every account</option>{{#accounts}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/accounts}}</select></div>
            <div><label for="zoneFilter">Zone</label><input id="zoneFilter" name="zone" value="{{zone}}"></div>
            <div><button type="submit">Filter</button></div></form>
            <div class="scroll" data-timeline data-rows="{{rowsPath}}" data-latest="{{latest}}"><table aria-live="polite">
            <thead><tr><th scope="col">Time</th><th scope="col">What</th><th scope="col">Account</th><th scope="col">Device</th>
            <th scope="col">Database</th><th scope="col">Zone</th><th scope="col">Records</th><th scope="col">Outcome</th></tr></thead>
            <tbody>{{> timelineRows}}</tbody></table></div>
            """),
        ("requests", """
            <form method="get" action="{{action}}" class="row"><div><label for="account">Account</label><select id="account" name="account">
            <option value="">Every account</option>{{#accounts}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/accounts}}</select></div>
            <div><label for="zoneFilter">Zone</label><input id="zoneFilter" name="zone" value="{{zone}}"></div>
            <div><label for="errors"><input type="checkbox" id="errors" name="errors" value="1"{{#errorsOnly}} checked{{/errorsOnly}}> Only with errors</label></div>
            <div><button type="submit">Filter</button></div></form>
            <div class="scroll" data-timeline data-rows="{{rowsPath}}" data-latest="{{latest}}"><table aria-live="polite">
            <thead><tr><th scope="col">Time</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Account</th>
            <th scope="col">Device</th><th scope="col">Database</th><th scope="col">Zones</th><th scope="col">Errors</th><th scope="col">ms</th></tr></thead>
            <tbody>{{> requestRows}}</tbody></table></div>
            """),
        ("requestRows", """
            {{#rows}}<tr class="{{#failed}}kind-fault{{/failed}}" data-sequence="{{sequence}}"><td>{{time}}</td><td class="mono">{{request}}</td>
            <td>{{status}}</td><td>{{account}}</td><td>{{device}}</td><td>{{database}}</td><td>{{zones}}</td><td>{{errors}}</td><td>{{duration}}</td></tr>{{/rows}}
            """),
        ("timelineRows", """
            {{#rows}}<tr class="kind-{{kind}}" data-sequence="{{sequence}}"><td>{{time}}</td><td>{{kind}}</td><td>{{account}}</td><td>{{device}}</td>
            <td>{{database}}</td><td>{{zone}}</td><td>{{records}}</td><td>{{outcome}}</td></tr>{{/rows}}
            """),
    ]
}
