#include "io/inp_reader.hpp"

#include "io/inp_lexer.hpp"
#include "io/inp_parser.hpp"

namespace halfstep {

Model read_inp(const std::string& path, Dialect dialect) {
  inp::Lexer lexer;
  lexer.open_file(path);
  return inp::DeckParser(lexer, 1, dialect).parse(path);
}

Model read_inp_all_errors(const std::string& path, int max_errors, Dialect dialect) {
  inp::Lexer lexer;
  lexer.open_file(path);
  return inp::DeckParser(lexer, max_errors, dialect).parse(path);
}

Model read_inp_string(const std::string& text, const std::string& virtual_path, Dialect dialect,
                      const ReadLimits& limits) {
  inp::Lexer lexer;
  lexer.open_text(text, virtual_path);
  return inp::DeckParser(lexer, 1, dialect, limits).parse(virtual_path);
}

}  // namespace halfstep
