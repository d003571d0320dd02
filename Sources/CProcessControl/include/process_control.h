#ifndef RELBENCH_PROCESS_CONTROL_H
#define RELBENCH_PROCESS_CONTROL_H

/// Asks the kernel to send this process SIGKILL when the thread that started it ends (Linux's prctl
/// PR_SET_PDEATHSIG, which Swift cannot call: prctl is variadic). Returns 0, or -1 where there is no such call.
int relbench_die_with_parent(void);

#endif
