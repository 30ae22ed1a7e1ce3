// Package webtest holds the end-to-end browser tests of the reference site:
// chromedp drives Debian's chromium against an httptest server over the
// sample reference written into a temporary database (internal/serve/web/webfake),
// checks that the instruction page's sections
// are visible, uses instant search with the keyboard, switches architecture,
// opens a PTX page, filters indexes and forms, picks a counterpart family,
// holds the first screens of issue 15 to their promise (the counterpart in
// the first viewport, no sideways scrolling, no word broken into pieces,
// touch targets of 40 px, "/" to search) and saves screenshots at 360 px
// and 1440 px, light and dark, to $GPUISA_SCREENSHOTS (or a temporary
// directory). With GPUISA_DB (or ../shared/upstream to build one) they run
// on the real database too.
package webtest
