// `gridlock`: the command tree lives in GridlockCommands, where the fuzzer reaches its option
// parsing too.

import GridlockCommands

Gridlock.main()
