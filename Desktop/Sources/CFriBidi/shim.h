#pragma once
#include <fribidi.h>
#include <stdint.h>
#include <stdlib.h>

/* FriBidi (LGPL-2.1+) is only ever linked dynamically, as the system's libfribidi.so.0. */

/// Resolved embedding levels of one paragraph (Unicode bidi algorithm, rules P2-I2).
/// `base` in: 0 = detect from the first strong character (P2/P3, left-to-right when there is none),
/// 1 = force left-to-right, 2 = force right-to-left; out: 1 when the paragraph resolved right-to-left, else 0.
/// `levels` receives one level per character. Returns 0 on failure (out of memory), 1 on success.
static inline int edk_bidi_levels(const uint32_t *text, int length, int *base, uint8_t *levels) {
    if (length <= 0) { *base = (*base == 2); return 1; }
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
    if (!types || !brackets) { free(types); free(brackets); return 0; }
    fribidi_get_bidi_types((const FriBidiChar *)text, length, types);
    fribidi_get_bracket_types((const FriBidiChar *)text, length, types, brackets);
    FriBidiParType direction = *base == 1 ? FRIBIDI_PAR_LTR : (*base == 2 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_ON);
    FriBidiLevel max = fribidi_get_par_embedding_levels_ex(types, brackets, length, &direction,
                                                           (FriBidiLevel *)levels);
    free(types);
    free(brackets);
    *base = FRIBIDI_IS_RTL(direction) ? 1 : 0;
    return max != 0;
}
