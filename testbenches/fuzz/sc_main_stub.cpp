// SystemC's library defines main() and calls sc_main from it; a harness has its own main
// (libFuzzer's or replay_main.cpp), so this sc_main only satisfies the link and never runs.
extern "C" int sc_main(int, char**) { return 1; }
