// A shared library that is no ddalab plug-in (tests/app/cli/plugin_test.sh): it has no entry point.
extern "C" int ddalab_test_answer() { return 42; }
