/*
 * fdt_rc.h: the one return-code space of fdtune. Every function of every
 * module that can fail returns one of these as an int, with its message in
 * the buffer the caller passes (err, n); the command line's exit statuses
 * are the same numbers. So 1 is a failure wherever it comes from, 2 a
 * refusal of what the user gave, 3 a question with no answer. Predicates
 * (functions named as a question, returning 1 for yes) and counts are not
 * statuses and say so in their contracts.
 */
#ifndef FDT_RC_H
#define FDT_RC_H

enum fdt_rc {
	FDT_OK = 0,             /* done */
	FDT_FAIL = 1,           /* failed: the message says what and what to do */
	FDT_USAGE = 2,          /* refused: an option, value or configuration the user gave */
	FDT_NOMATCH = 3,        /* a valid question with no answer: nothing recorded matches */
	FDT_REFUSED = 4         /* the device refused what was asked (a launch over its
				 * resources, memory it lacks) and is intact */
};

#endif
