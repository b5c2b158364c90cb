#include "io/inp_reader.hpp"

#include "io/inp_lexer.hpp"
#include "io/inp_parser.hpp"

namespace halfstep {

Model read_inp(const std::string& path) {
  inp::Lexer lexer;
  lexer.open_file(path);
  return inp::DeckParser(lexer).parse(path);
}

Model read_inp_all_errors(const std::string& path, int max_errors) {
  inp::Lexer lexer;
  lexer.open_file(path);
  return inp::DeckParser(lexer, max_errors).parse(path);
}

Model read_inp_string(const std::string& text, const std::string& virtual_path) {
  inp::Lexer lexer;
  lexer.open_text(text, virtual_path);
  return inp::DeckParser(lexer).parse(virtual_path);
}

}  // namespace halfstep
