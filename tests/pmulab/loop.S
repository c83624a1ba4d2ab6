/*
 * Programs whose user-mode instruction counts are known by construction
 * (built with -nostdlib -static: nothing runs before _start).
 *   -DN=n:            movz, movk, n x (subs, b.ne), mov, mov, svc = 2n+5
 *   -DN=n -DSYSCALL:  n getppid() calls, n x (mov, svc, subs, b.ne),
 *                     and the five others = 4n+5
 *   -DN=n -DREGION:   a region of a run for pstat --control fd:3,4
 *                     (perf's protocol): the loop, "enable" on fd 3
 *                     and a wait for the ack on fd 4, the loop again,
 *                     "disable" and its ack, the loop a third time.
 *                     Counting starts while the program waits for the
 *                     first ack (or, at worst, in the five instructions
 *                     before that read) and stops while it waits for
 *                     the second: the region counts 2n+16 (ret, bl,
 *                     the loop and its ret, adr, mov, bl, then the
 *                     eight instructions of command), at most 5 more.
 */
	.text
	.global _start
_start:
#ifdef REGION
	sub	sp, sp, #16
	bl	loop
	adr	x1, enable
	mov	x2, #7
	bl	command
	bl	loop
	adr	x1, disable
	mov	x2, #8
	bl	command
	bl	loop
	b	exit

/* x1, x2: the command and its length; the ack is read onto the stack */
command:
	mov	x0, #3
	mov	x8, #64			/* write */
	svc	#0
	mov	x0, #4
	mov	x1, sp
	mov	x2, #8
	mov	x8, #63			/* read */
	svc	#0
	ret

loop:
	movz	x9, #(N & 0xffff)
	movk	x9, #((N >> 16) & 0xffff), lsl #16
1:	subs	x9, x9, #1
	b.ne	1b
	ret

enable:	.ascii	"enable\n"
disable: .ascii	"disable\n"
	.balign	4
#else
	movz	x9, #(N & 0xffff)
	movk	x9, #((N >> 16) & 0xffff), lsl #16
1:
#ifdef SYSCALL
	mov	x8, #173		/* getppid */
	svc	#0
#endif
	subs	x9, x9, #1
	b.ne	1b
#endif
exit:
	mov	x8, #93			/* exit(0) */
	mov	x0, #0
	svc	#0
