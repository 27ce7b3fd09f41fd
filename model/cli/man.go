package cli

import (
	"os"

	"github.com/spf13/cobra"
)

// ManRoot returns the command tree for a man page generator
// (model/cli/mangen): every command's Long ends with the exit-status
// table. The generator lives apart so that bagscope does not link it.
func ManRoot() *cobra.Command {
	root := newRoot(&env{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	var addTable func(c *cobra.Command)
	addTable = func(c *cobra.Command) {
		long := c.Long
		if long == "" {
			long = c.Short
		}
		c.Long = long + "\n\n" + exitTable
		for _, sub := range c.Commands() {
			addTable(sub)
		}
	}
	addTable(root)
	return root
}
