// json-c (libjson-c-dev): the parser (json_tokener) and the writer (json_object_to_json_string_ext).
#include <json-c/json.h>
