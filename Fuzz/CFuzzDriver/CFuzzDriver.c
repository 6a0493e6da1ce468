// The declaration of libFuzzer's driver is the whole of this target; see the header.
