// The web page's static files, built into the binary: every file under tools/web/ becomes
// one entry of a generated source (tools/embed_web.cmake writes it at build time), served by
// `toadbase serve` at its path ("tools/web/app.js" -> "/app.js"). Nothing is read from disk
// at run time, so no request can reach a file outside this table.
#pragma once

#include <string_view>

namespace toadbase::tools {

struct WebAsset {
  std::string_view path;  // "/app.js"
  std::string_view data;
};

/// The embedded file at `path` ("/app.js"), or nullptr.
const WebAsset* find_web_asset(std::string_view path);
/// How many files are embedded.
size_t web_asset_count();

}  // namespace toadbase::tools
