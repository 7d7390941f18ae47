// Apple's CloudKit registers its Objective-C class names with the runtime when it loads, so an
// NSKeyedArchiver archive naming `CKRecord` or `CKServerChangeToken` decodes in any process that
// links it — an app's own `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` included. Swift has
// no load-time code, so this constructor asks StratusCloudKit to register the same names with
// Foundation's keyed archivers before `main` runs (StratusCloudKit defines the function).
extern void stratus_cloudkit_register_archive_class_names(void);

__attribute__((constructor)) static void stratus_cloudkit_load(void) {
    stratus_cloudkit_register_archive_class_names();
}
