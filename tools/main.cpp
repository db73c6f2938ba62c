#include "tools/commands.hpp"

int main(int argc, char** argv) { return toadbase::tools::run(argc, argv); }
