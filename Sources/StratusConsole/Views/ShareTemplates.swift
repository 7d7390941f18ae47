/// The share page: its participants and the owner's controls.
enum ShareTemplates {
    static let all: [(String, String)] = [
        ("share", """
            <p>{{#title}}“{{title}}” · {{/title}}Public permission: {{publicPermission}}{{#shortGUID}} · short GUID <code>{{shortGUID}}</code>{{/shortGUID}}</p>
            {{#url}}<p>Share URL: <a href="{{url}}">{{url}}</a></p>{{/url}}
            <h2>Participants</h2>
            <div class="scroll"><table><thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Permission</th>
            <th scope="col">Acceptance</th><th scope="col">Actions</th></tr></thead><tbody>
            {{#participants}}<tr><td>{{name}}<br><span class="hint">{{email}}</span></td><td>{{role}}</td><td>{{permission}}</td><td>{{status}}</td><td>
            {{#manageable}}<form method="post" action="{{changePath}}" class="inline"><input type="hidden" name="formToken" value="{{formToken}}">
            <input type="hidden" name="back" value="{{back}}"><input type="hidden" name="zone" value="{{zoneField}}">
            <input type="hidden" name="name" value="{{shareName}}"><input type="hidden" name="participant" value="{{participant}}">
            <input type="hidden" name="operation" value="permission">
            <label for="permission-{{participant}}">Permission for {{name}}</label><select id="permission-{{participant}}" name="permission">
            {{#choices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/choices}}</select>
            <button type="submit">Change permission</button></form>
            <form method="post" action="{{changePath}}" class="inline"><input type="hidden" name="formToken" value="{{formToken}}">
            <input type="hidden" name="back" value="{{back}}"><input type="hidden" name="zone" value="{{zoneField}}">
            <input type="hidden" name="name" value="{{shareName}}"><input type="hidden" name="participant" value="{{participant}}">
            <button type="submit" name="operation" value="remove" class="danger">Remove {{name}}</button></form>{{/manageable}}
            {{#acceptPath}}<form method="post" action="{{acceptPath}}" class="inline"><input type="hidden" name="formToken" value="{{formToken}}">
            <input type="hidden" name="back" value="{{back}}"><input type="hidden" name="shortGUID" value="{{shortGUID}}">
            <button type="submit">Accept as {{name}}</button></form>{{/acceptPath}}
            </td></tr>{{/participants}}</tbody></table></div>
            {{#mayManage}}<form method="post" action="{{changePath}}"><fieldset><legend>Invite someone</legend>
            <input type="hidden" name="formToken" value="{{formToken}}"><input type="hidden" name="back" value="{{back}}">
            <input type="hidden" name="zone" value="{{zoneField}}"><input type="hidden" name="name" value="{{shareName}}">
            <input type="hidden" name="operation" value="invite">
            <div class="row"><div><label for="inviteEmail">Email</label><input id="inviteEmail" name="email" type="email" required></div>
            <div><label for="invitePermission">Permission</label><select id="invitePermission" name="permission">
            {{#permissions}}<option value="{{value}}">{{label}}</option>{{/permissions}}</select></div>
            <div><button type="submit">Invite</button></div></div></fieldset></form>
            <form method="post" action="{{changePath}}"><input type="hidden" name="formToken" value="{{formToken}}">
            <input type="hidden" name="back" value="{{back}}"><input type="hidden" name="zone" value="{{zoneField}}">
            <input type="hidden" name="name" value="{{shareName}}">
            <p><button type="submit" name="operation" value="stop" class="danger" data-confirm="Stop sharing? Every participant loses access.">Stop sharing</button></p></form>{{/mayManage}}
            """),
    ]
}
