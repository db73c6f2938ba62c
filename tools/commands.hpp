// The toadbase command: subcommands built with CLI11.
#pragma once

namespace toadbase::tools {

/// Runs the command line; returns the process exit code.
int run(int argc, char** argv);

}  // namespace toadbase::tools
