/** A user's application as a named module: it takes a lock on whichever backend its URI names. */
module io.locksmith.consumers.jpmsbom {
    requires io.locksmith.api;
}
