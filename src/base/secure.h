/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SECURE_H
#define PSTAT_SECURE_H

/*
 * pstat run with privileges it was not started with: a set-user-ID or
 * set-group-ID binary, or file capabilities (getauxval(AT_SECURE), as
 * glibc's secure_getenv decides). The user who ran it must not gain
 * through it what they could not do themselves.
 */
int secure_mode(void);

/*
 * In secure mode, remove from the environment, with a warning each, the
 * variables that load code or redirect what pstat reads: PSTAT_* (the
 * fixture roots, PSTAT_LIBPFM) and LIBPFM_* (libpfm4's event files and
 * forced tables). Does nothing otherwise.
 */
void secure_scrub_env(void);

/*
 * In secure mode, check files with the real user's identity
 * (setfsuid/setfsgid) until secure_user_files_end: a file they could not
 * open themselves is not opened for them, and a file created is theirs.
 * Does nothing otherwise.
 */
void secure_user_files_begin(void);
void secure_user_files_end(void);

#endif
