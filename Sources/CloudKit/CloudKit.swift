// `import CloudKit` on Linux compiles an app's CloudKit code unchanged against a Stratus server.
// On Apple platforms the system's CloudKit is the real one: an app imports StratusCloudKit in its
// test or debug build instead, so this module is empty there.
#if !canImport(Darwin)
@_exported import StratusCloudKit
#endif
