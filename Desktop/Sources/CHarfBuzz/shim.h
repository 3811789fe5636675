#pragma once
#include <hb.h>
#include <stdint.h>

/// The ISO 15924 tag of a character's Unicode script ("Latn", "Hebr", "Hani", "Zyyy" for common, "Zinh" for
/// inherited) as a big-endian 32-bit value.
static inline uint32_t edk_script_tag(uint32_t scalar) {
    return (uint32_t)hb_script_to_iso15924_tag(hb_unicode_script(hb_unicode_funcs_get_default(), scalar));
}
