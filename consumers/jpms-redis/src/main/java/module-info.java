/** A user's application as a named module: it takes a Redis lock through Locksmith's API. */
module io.locksmith.consumers.jpms {
    requires io.locksmith.api;
    requires io.locksmith.redis;
}
