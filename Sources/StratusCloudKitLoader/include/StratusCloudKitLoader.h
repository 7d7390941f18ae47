// StratusCloudKitLoader: runs StratusCloudKit's one load-time step (see loader.c). Nothing to call.
#ifndef STRATUS_CLOUDKIT_LOADER_H
#define STRATUS_CLOUDKIT_LOADER_H
#endif
