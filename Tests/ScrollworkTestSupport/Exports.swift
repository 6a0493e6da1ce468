// The loopback server moved to the product (the demo serves with it); tests keep reaching it
// through this module.
@_exported import LoopbackHTTP
