# Libraries the kernel/trace subcommands need (included by app/CMakeLists.txt).
target_link_libraries(ws_app PUBLIC ws_catalog ws_analysis)
find_package(nlohmann_json 3 REQUIRED)
target_link_libraries(ws_app PRIVATE nlohmann_json::nlohmann_json)
