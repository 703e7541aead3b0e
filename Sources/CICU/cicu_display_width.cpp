// CICU: display widths by grapheme cluster, the C side of ICUKit's DisplayWidth.swift.
#include "cicu_bridge.h"

extern "C" {

int32_t cicu_display_width(const char *utf8, int32_t length, int32_t *status) {
    if (failed(status)) return -1;
    CICU_GUARD(-1, {
        UnicodeString text = fromUTF8(utf8, length);
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<BreakIterator> clusters(BreakIterator::createCharacterInstance(Locale::getRoot(), ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return -1;
        }
        clusters->setText(text);
        int32_t width = 0;
        int32_t start = clusters->first();
        for (int32_t end = clusters->next(); end != BreakIterator::DONE; start = end, end = clusters->next()) {
            UChar32 base = text.char32At(start);
            bool visible = false, wide = false, emoji = false;
            // The columns of the cluster's spacing characters: a spacing mark (Devanagari's vowel signs, Thai
            // sara am) takes a column of its own on a terminal; a conjoining jamo vowel or final, none.
            int32_t spacing = 0;
            for (int32_t i = start; i < end; i = text.moveIndex32(i, 1)) {
                UChar32 c = text.char32At(i);
                int8_t gc = u_charType(c);
                bool invisible = gc == U_NON_SPACING_MARK || gc == U_ENCLOSING_MARK || gc == U_FORMAT_CHAR ||
                                 gc == U_CONTROL_CHAR || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT);
                if (!invisible) visible = true;
                if (c == 0xFE0F && u_hasBinaryProperty(base, UCHAR_EMOJI)) wide = true;
                if (c == 0x200D || u_hasBinaryProperty(c, UCHAR_EMOJI_MODIFIER)) emoji = true;
                int32_t jamo = u_getIntPropertyValue(c, UCHAR_HANGUL_SYLLABLE_TYPE);
                if (!invisible && jamo != U_HST_VOWEL_JAMO && jamo != U_HST_TRAILING_JAMO) {
                    int32_t eaw = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
                    spacing += eaw == U_EA_WIDE || eaw == U_EA_FULLWIDTH ? 2 : 1;
                }
            }
            if (!visible) continue;
            int32_t eaw = u_getIntPropertyValue(base, UCHAR_EAST_ASIAN_WIDTH);
            if (eaw == U_EA_WIDE || eaw == U_EA_FULLWIDTH || u_hasBinaryProperty(base, UCHAR_EMOJI_PRESENTATION)) {
                wide = true;
            }
            // An emoji sequence (ZWJ, skin tone, flag, presentation selector) is one glyph of one or two
            // columns; any other cluster takes its spacing characters' columns.
            if (wide || emoji || u_hasBinaryProperty(base, UCHAR_EMOJI_PRESENTATION)) {
                width += wide ? 2 : 1;
            } else {
                width += spacing > 0 ? spacing : 1;
            }
        }
        return width;
    })
}

}  // extern "C"
