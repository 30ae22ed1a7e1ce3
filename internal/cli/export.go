package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/serve/web"
)

func newExportCmd(e *env) *cobra.Command {
	var out string
	var replace, precompress bool
	cmd := &cobra.Command{
		Use:   "export --out DIR",
		Short: "Write the website as static files for any web server or CDN",
		Long: `Export renders every page of the database into DIR: each page as PATH/index.html, the
stylesheet and scripts under static/, and the read-only JSON API documents as
api/v1/PATH.json. Any static web server (or CDN) then serves the reference without
gpuisa; search-as-you-type, /search and /decode need "gpuisa serve" and are left out.
--gzip also writes FILE.gz beside every file of 1 KiB or more, for servers that send
precompressed files (nginx's gzip_static). The site is written to a new directory
beside DIR and renamed to DIR when complete, so a failed export leaves DIR as it was.
DIR must be empty or absent, unless --replace: then a previous site there is replaced
whole once the new one is written.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errs.Invalid("export needs --out DIR")
			}
			if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 && !replace {
				return errs.Invalid("%s is not empty (--replace replaces it)", out)
			}
			db, err := e.open()
			if err != nil {
				return err
			}
			defer db.Close()
			start := time.Now()
			last := time.Now()
			st, err := web.Export(cmd.Context(), db, out, web.ExportOptions{Precompress: precompress,
				Progress: func(done, total int) {
					if time.Since(last) > 2*time.Second || done == total {
						last = time.Now()
						fmt.Fprintf(e.stderr, "exported %d/%d\n", done, total)
					}
				}})
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "wrote %d pages and %d files (%.1f MB) to %s in %s\n",
				st.Pages, st.Files, float64(st.Bytes)/1e6, out, time.Since(start).Round(time.Millisecond))
			for _, f := range st.Failed {
				fmt.Fprintf(e.stderr, "not exported: %s\n", f)
			}
			if len(st.Failed) > 0 {
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory to write")
	cmd.Flags().BoolVar(&replace, "replace", false, "replace the site already in --out")
	cmd.Flags().BoolVar(&precompress, "gzip", false, "write FILE.gz beside every file of 1 KiB or more")
	return cmd
}
