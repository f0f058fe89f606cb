package io.locksmith.tck;

/** What every group of rules needs: the contract's helpers. */
interface Rules {

    /** @return the contract running the rules */
    LockContract contract();
}
