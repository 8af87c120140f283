// Scenario JSON text -> document (scenario_loader.hpp's parse_json_text): repeated keys, numbers
// beyond a double's range and nesting past kMaxJsonDepth are errors with the file, line and
// column, not silently kept, thrown as a library error or paid for in memory.

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "tools/scenario/field_spec.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;

namespace {

// Where json::parse threw out_of_range: a SAX pass that builds nothing is told the position.
std::size_t overflow_byte(std::string_view text) {
  struct Locator : json::json_sax_t {
    std::size_t byte = 0;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception&) override {
      byte = position;
      return false;
    }
  } locator;
  json::sax_parse(text.begin(), text.end(), &locator);
  return locator.byte;
}

// "file.json:LINE:COLUMN" of the byte at `offset` (0-based).
std::string text_position(std::string_view text, const std::string& source, std::size_t offset) {
  const std::size_t end = std::min(offset, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return source + ":" + std::to_string(line) + ":" + std::to_string(end - line_start + 1);
}

}  // namespace

std::string read_json_file_text(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw sim::InputError(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw sim::InputError(path + ": cannot open " + what);
  std::string text;
  std::array<char, 1 << 16> block{};
  while (in) {
    in.read(block.data(), block.size());
    text.append(block.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxJsonFileBytes) {
      throw sim::InputError(path + ": larger than 64 MB, too large for " + what +
                            " (bulk data such as jobs or flows belongs in a trace file)");
    }
  }
  if (in.bad()) throw sim::InputError(path + ": cannot read " + what);
  return text;
}

void check_json_depth(std::string_view text, const std::string& source) {
  // One pass, no allocation: brackets outside strings. The parser proper runs only on text that
  // passes, so a hostile file costs its length, never its depth squared.
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // whatever is escaped
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        throw sim::InputError(text_position(text, source, i) + ": invalid JSON: arrays and objects nested deeper than " +
                              std::to_string(kMaxJsonDepth) +
                              " levels (the shipped scenarios nest 7 at most)");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

nlohmann::json parse_json_text(std::string_view text, const std::string& source) {
  check_json_depth(text, source);
  // JSON lets an object repeat a key and nlohmann keeps the last one, so a scenario with two
  // "nodes" would silently lose one; the parser's events let us notice and say where.
  struct Frame {
    bool array = false;
    std::string pointer;
    std::string last_key;
    std::size_t count = 0;  // elements seen, for arrays
    std::set<std::string> keys;
  };
  std::vector<Frame> frames;
  std::vector<std::string> duplicates;
  const auto child_pointer = [&frames]() -> std::string {
    if (frames.empty()) return "";
    Frame& top = frames.back();
    if (top.array) return pointer_append(top.pointer, std::to_string(top.count++));
    return pointer_append(top.pointer, top.last_key);
  };
  const json::parser_callback_t on_event = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start: {
        std::string ptr = child_pointer();
        frames.push_back({event == json::parse_event_t::array_start, std::move(ptr), {}, 0, {}});
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!frames.empty()) frames.pop_back();
        break;
      case json::parse_event_t::key:
        if (!frames.empty() && parsed.is_string()) {
          Frame& top = frames.back();
          top.last_key = parsed.get<std::string>();
          if (!top.keys.insert(top.last_key).second) {
            // The document root has the empty pointer: a key there reads "file.json:/key".
            duplicates.push_back(source + ":" + pointer_append(top.pointer, top.last_key) +
                                 ": duplicate key; JSON keeps only the last of them");
          }
        }
        break;
      case json::parse_event_t::value:
        if (!frames.empty() && frames.back().array) ++frames.back().count;
        break;
    }
    return true;
  };
  // The byte just past the offending character (1-based, as parse_error::byte), and the
  // explanation without nlohmann's "[json.exception...] ... at ..." prefix.
  std::size_t error_byte = 0;
  std::string detail;
  try {
    json doc = json::parse(text.begin(), text.end(), on_event);
    if (!duplicates.empty()) throw sim::InputErrors(std::move(duplicates));
    return doc;
  } catch (const json::parse_error& e) {
    error_byte = e.byte;
    detail = e.what();
    if (const auto pos = detail.find("syntax error"); pos != std::string::npos) {
      detail = detail.substr(pos);
    }
  } catch (const json::out_of_range& e) {
    // A number beyond double's range (1e400): nlohmann says where only to a SAX handler.
    error_byte = overflow_byte(text);
    detail = e.what();
    if (const auto pos = detail.find("number overflow"); pos != std::string::npos) {
      detail = detail.substr(pos) + " (beyond the range of a double, about 1.8e308)";
    }
  }
  throw sim::InputError(text_position(text, source, error_byte > 0 ? error_byte - 1 : 0) + ": invalid JSON: " + detail);
}

}  // namespace dcsim::tools::scenario
