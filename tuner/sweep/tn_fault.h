/*
 * tn_fault.h: fault injection on the pipe to the workers, for the tests
 * only (tn_fault.c).
 */
#ifndef TN_FAULT_H
#define TN_FAULT_H

/* 1, with errno EPIPE, when this is the write that FDTUNE_FAULT=pipe:N
 * makes fail (the N-th write of this process to a worker); 0 otherwise. */
int tn_fault_pipe(void);

#endif
