// `import CloudKit` on Linux compiles an app's CloudKit code unchanged against a Stratus server.
// Apple's CloudKit brings Foundation with it (a file that says only `import CloudKit` uses `Date`,
// `URL`, `UserDefaults`, `NSPredicate`), and so does this module. On Apple platforms the system's
// CloudKit is the real one: an app imports StratusCloudKit in its test or debug build instead, so
// this module is empty there.
#if !canImport(Darwin)
@_exported import Foundation
@_exported import StratusCloudKit
#endif
