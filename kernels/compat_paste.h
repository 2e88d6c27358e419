/* The era compat layer's "function-name-pasting" row (kernels/compat.c):
 * gcc before 3.4 took __FUNCTION__ (and __PRETTY_FUNCTION__) as a string
 * literal, so 2.4 code pastes it to others: printk(KERN_ERR __FUNCTION__
 * ": failed\n"), IRDA_DEBUG(2, __FUNCTION__ "()\n"). gcc 3.4 on makes it a
 * variable, like __func__, and every such site is a syntax error
 * ("expected ')' before string constant"). The rewrite gives each pasting
 * site back the literal gcc 3.3 saw. */
#ifndef LAB_COMPAT_PASTE_H
#define LAB_COMPAT_PASTE_H

/* Pure: each __FUNCTION__ or __PRETTY_FUNCTION__ of the C text `in` that
 * is pasted, that is, next to a string literal, followed by an identifier
 * (`__FUNCTION__ fmt`) or after an all-capitals macro (`KERN_ERR`,
 * `PFX`), becomes the name of the function around it as a literal
 * ("iriap_open"). Inside a #define no function is known, so it becomes
 * __FILE__, a literal that pastes too: the message names the file there.
 * Sites that are not pasted (`printk("%s", __FUNCTION__)`), comments and
 * literals are left alone. Returns the number of sites changed, with *out
 * malloc'd (a copy when 0). */
int lab_compat_paste_function_names(const char *in, char **out);

#endif
