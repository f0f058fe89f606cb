/** Micrometer meters and observations for Locksmith clients. */
module io.locksmith.micrometer {
    requires io.locksmith.api;
    requires micrometer.core;
    requires micrometer.observation;

    exports io.locksmith.micrometer;
}
