#ifndef SCROLLWORK_CFUZZDRIVER_H
#define SCROLLWORK_CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's `FuzzerDriver.cpp`), for a program that has a `main` of its
/// own: SwiftPM links an executable's `main` to its module's entry, so a fuzz target calls
/// this from there instead of linking libFuzzer's `main`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
