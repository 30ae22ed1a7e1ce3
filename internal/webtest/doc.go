// Package webtest holds the end-to-end browser tests of the reference site:
// chromedp drives Debian's chromium against an httptest server over the fake
// store (internal/web/webfake), checks that the instruction page's sections
// are visible, uses instant search with the keyboard, switches architecture,
// opens a PTX page, and saves screenshots at 360 px and 1440 px, light and
// dark, to $GPUISA_SCREENSHOTS (or a temporary directory).
package webtest
