import StratusModel

/// What `stratus serve --dev` prints once seeded: the server, its containers and accounts, and
/// curl lines to paste.
enum DevWalkthrough {
    /// Ready-to-paste curl lines: create a zone, save a record, fetch the zone's changes.
    static func text(_ credentials: DevCredentials) -> String {
        let alice = credentials.account("alice")
        let base = "\(credentials.serverURL)/database/1/\(credentials.container)/\(credentials.environment)/private"
        let query = "ckAPIToken=\(credentials.apiToken)&ckWebAuthToken=\(alice?.webAuthToken ?? "")"
        let accounts = credentials.accounts.map { "  \($0.name) <\($0.email)> \($0.userRecordName)" }.joined(separator: "\n")
        // Each further container (`--container`) has tokens of its own: say where they are.
        let also = (credentials.containers ?? []).filter { $0.identifier != credentials.container }.map {
            "\ncontainer \($0.identifier) (\($0.environment); its tokens: \"containers\" in dev-credentials.json)"
        }.joined()
        return """
            Stratus (dev) at \(credentials.serverURL)
            container \(credentials.container) (\(credentials.environment))\(also)
            accounts:
            \(accounts)
            credentials: see dev-credentials.json in the data directory

            # create a zone (as alice)
            curl -s -X POST '\(base)/zones/modify?\(query)' -d '{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Trips"}}}]}'
            # save a record
            curl -s -X POST '\(base)/records/modify?\(query)' -d '{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":{"recordName":"paris","recordType":"Destination","fields":{"caption":{"value":"Paris"},"createdAt":{"value":1767225600000,"type":"TIMESTAMP"}}}}]}'
            # fetch the zone's changes
            curl -s -X POST '\(base)/changes/zone?\(query)' -d '{"zones":[{"zoneID":{"zoneName":"Trips"}}]}'
            """
    }
}
