#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
/* The wide-character API of ncursesw (add_wch, get_wch, setcchar). */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <ncursesw/curses.h>

/* Attributes, colour pairs and mouse buttons are macros that Swift cannot import; ESCDELAY and stdscr are
   wrapped so that the Swift side never touches ncurses globals directly. These wrappers are the whole bridge:
   they own no policy and allocate nothing. */

static inline attr_t cncurses_attr_normal(void) { return A_NORMAL; }
static inline attr_t cncurses_attr_bold(void) { return A_BOLD; }
static inline attr_t cncurses_attr_dim(void) { return A_DIM; }
static inline attr_t cncurses_attr_reverse(void) { return A_REVERSE; }
static inline attr_t cncurses_attr_underline(void) { return A_UNDERLINE; }

static inline mmask_t cncurses_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cncurses_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cncurses_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cncurses_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cncurses_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t cncurses_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }

static inline WINDOW *cncurses_stdscr(void) { return stdscr; }

/* The next refresh redraws every cell (after the terminal was given back and taken again). */
static inline int cncurses_redraw_everything(void) { return clearok(curscr, TRUE); }

/* Fills a cchar_t with one grapheme cluster (a spacing character and up to CCHARW_MAX - 1 combining ones,
   NUL-terminated in `text`), its attributes and colour pair. Returns ERR when ncurses refuses it. */
static inline int cncurses_setcchar(cchar_t *cell, const wchar_t *text, attr_t attributes, short pair) {
    return setcchar(cell, text, attributes, pair, NULL);
}

/* The columns the C library gives a wide character (what ncurses places cells by); declared here because
   <wchar.h> declares it only for X/Open. */
extern int wcwidth(wchar_t c);
static inline int cncurses_wcwidth(wchar_t c) { return wcwidth(c); }

/* The number of wide characters a cchar_t holds at most. */
static inline int cncurses_ccharw_max(void) { return CCHARW_MAX; }

#endif
