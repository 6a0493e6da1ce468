// The loopback server is a product module (the demo serves with it); the tests of feeds and of
// the app reach it through this module.
@_exported import LoopbackHTTP
