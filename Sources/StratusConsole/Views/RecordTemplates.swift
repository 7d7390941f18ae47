/// Templates of one record: saving one, its page, its share, and the query builder.
enum RecordTemplates {
    /// Creates a record or sets up to three fields of an existing one at once (zone pages, panes).
    static let saveForm = """
        <form method="post" action="{{savePath}}"{{#paneForm}} data-pane-form{{/paneForm}}><fieldset><legend>Save a record</legend>
        <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
        <input type="hidden" name="operation" value="save"><input type="hidden" name="zone" value="{{zoneField}}">
        <input type="hidden" name="owner" value="{{ownerField}}">
        <div class="row"><div><label for="{{idPrefix}}recordName">Record name</label><input id="{{idPrefix}}recordName" name="name" value="{{saveName}}" required></div>
        <div><label for="{{idPrefix}}recordType">Record type (for a new record)</label><input id="{{idPrefix}}recordType" name="recordType" value="{{saveRecordType}}"></div></div>
        {{#saveRows}}<div class="row"><div><label for="{{idPrefix}}fieldName{{suffix}}">{{label}}</label><input id="{{idPrefix}}fieldName{{suffix}}" name="field{{suffix}}" value="{{field}}"></div>
        <div><label for="{{idPrefix}}fieldType{{suffix}}">Type</label><select id="{{idPrefix}}fieldType{{suffix}}" name="type{{suffix}}">{{#rowTypes}}<option value="{{type}}"{{#selected}} selected{{/selected}}>{{type}}</option>{{/rowTypes}}</select></div>
        <div><label for="{{idPrefix}}fieldValue{{suffix}}">Value</label><input id="{{idPrefix}}fieldValue{{suffix}}" name="value{{suffix}}" value="{{value}}"></div></div>{{/saveRows}}
        <p><button type="submit">Save record</button></p></fieldset></form>
        """

    static let all: [(String, String)] = [
        ("record", """
            <div class="scroll"><table><tbody>
            <tr><th scope="row">Record type</th><td>{{type}}</td></tr>
            <tr><th scope="row">Change tag</th><td class="mono">{{changeTag}}</td></tr>
            <tr><th scope="row">Created</th><td>{{created}}</td></tr>
            <tr><th scope="row">Modified</th><td>{{modified}} by {{modifiedBy}}{{#modifiedDevice}} on {{modifiedDevice}}{{/modifiedDevice}}</td></tr>
            <tr><th scope="row">Parent</th><td>{{#parent}}<a href="{{href}}">{{name}}</a>{{/parent}}{{^parent}}—{{/parent}}</td></tr>
            <tr><th scope="row">Share</th><td>{{#share}}<a href="{{href}}">{{name}}</a>{{/share}}{{^share}}—{{/share}}</td></tr>
            </tbody></table></div>
            {{#shareHref}}<p><a href="{{shareHref}}">Participants of this share</a></p>{{/shareHref}}
            <h2>Fields</h2>
            <form method="post" action="{{savePath}}"><input type="hidden" name="formToken" value="{{formToken}}">
            <input type="hidden" name="back" value="{{back}}"><input type="hidden" name="operation" value="edit">
            <input type="hidden" name="zone" value="{{zoneField}}"><input type="hidden" name="owner" value="{{ownerField}}">
            <input type="hidden" name="name" value="{{name}}"><input type="hidden" name="changeTag" value="{{changeTag}}">
            <div class="scroll"><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Value</th></tr></thead><tbody>
            {{#fields}}<tr><th scope="row">{{name}}</th><td>{{type}}</td><td>{{#previews}}<a href="{{url}}"><img class="asset" src="{{url}}" alt="{{alt}}"></a>{{/previews}}
            {{#editable}}<label class="hint" for="f-{{name}}">{{display}}</label><input id="f-{{name}}" name="field.{{name}}" value="{{editText}}">
            <input type="hidden" name="type.{{name}}" value="{{type}}">{{/editable}}{{^editable}}{{display}}{{/editable}}</td></tr>{{/fields}}
            <tr><td><label for="newField">New field</label><input id="newField" name="newField"></td>
            <td><label for="newType">Type</label><select id="newType" name="newType">{{#types}}<option value="{{type}}">{{type}}</option>{{/types}}</select></td>
            <td><label for="newValue">Value</label><input id="newValue" name="newValue"></td></tr>
            </tbody></table></div><p><button type="submit">Save changes</button></p></form>
            {{#mayShare}}<form method="post" action="{{sharePath}}"><fieldset><legend>Share this record</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <input type="hidden" name="operation" value="create"><input type="hidden" name="zone" value="{{zoneField}}">
            <input type="hidden" name="root" value="{{name}}">
            <div class="row"><div><label for="recordShareEmail">Invite (email)</label><input id="recordShareEmail" name="email" type="email"></div>
            <div><label for="recordSharePermission">Permission</label><select id="recordSharePermission" name="permission">
            {{#participants}}<option value="{{value}}">{{label}}</option>{{/participants}}</select></div>
            <div><button type="submit">Share record</button></div></div></fieldset></form>{{/mayShare}}
            <form method="post" action="{{savePath}}"><input type="hidden" name="formToken" value="{{formToken}}">
            <input type="hidden" name="back" value="{{back}}"><input type="hidden" name="next" value="{{zoneBack}}">
            <input type="hidden" name="zone" value="{{zoneField}}"><input type="hidden" name="owner" value="{{ownerField}}">
            <input type="hidden" name="name" value="{{name}}"><input type="hidden" name="changeTag" value="{{changeTag}}">
            <p><button type="submit" name="operation" value="delete" class="danger">Delete this record</button></p></form>
            """),
        ("query", """
            <form method="get" action="{{queryPath}}"><fieldset><legend>Query</legend>
            <input type="hidden" name="zone" value="{{zoneField}}"><input type="hidden" name="owner" value="{{ownerField}}">
            <div class="row"><div><label for="recordType">Record type</label><input id="recordType" name="recordType" value="{{recordType}}" required></div>
            <div><label for="filterField">Filter field</label><input id="filterField" name="filterField" value="{{filterField}}"></div>
            <div><label for="comparator">Comparator</label><select id="comparator" name="comparator">
            {{#comparators}}<option{{#selected}} selected{{/selected}}>{{name}}</option>{{/comparators}}</select></div>
            <div><label for="filterType">Value type</label><select id="filterType" name="filterType">
            {{#filterTypes}}<option{{#selected}} selected{{/selected}}>{{type}}</option>{{/filterTypes}}</select></div>
            <div><label for="filterValue">Value</label><input id="filterValue" name="filterValue" value="{{filterValue}}"></div></div>
            <div class="row"><div><label for="sortField">Sort by field</label><input id="sortField" name="sortField" value="{{sortField}}"></div>
            <div><label for="order">Order</label><select id="order" name="order"><option value="ascending">Ascending</option>
            <option value="descending"{{#descending}} selected{{/descending}}>Descending</option></select></div>
            <div><button type="submit">Run records/query</button></div></div></fieldset></form>
            {{#ran}}<h2>Results</h2>{{^records}}<p>No records match.</p>{{/records}}
            <div class="scroll"><table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Fields</th></tr></thead><tbody>
            {{#records}}<tr><td><a href="{{href}}">{{name}}</a></td><td>{{type}}</td><td>{{fieldsText}}</td></tr>{{/records}}</tbody></table></div>
            {{#next}}<p><a href="{{next}}">More results</a></p>{{/next}}{{/ran}}
            """),
    ]
}
