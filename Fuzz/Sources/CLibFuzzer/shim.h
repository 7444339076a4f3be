#include <stddef.h>
#include <stdint.h>

// The libFuzzer entry point of libclang_rt.fuzzer_no_main (linked by scripts/fuzz.sh).
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*UserCb)(const uint8_t *Data, size_t Size));
