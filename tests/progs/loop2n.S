/* SPDX-License-Identifier: MIT */
/*
 * A static program for x86-64 Linux that retires exactly 2N + 4
 * instructions: mov, N times (dec, jnz), mov, xor, syscall (exit 0).
 * Build: cc -nostdlib -static -DN=1000000 -o loop2n loop2n.S
 */
#ifndef N
#define N 1000000
#endif
	.globl _start
	.text
_start:
	mov $N, %rcx
1:	dec %rcx
	jnz 1b
	mov $60, %eax
	xor %edi, %edi
	syscall
	.section .note.GNU-stack, "", @progbits
