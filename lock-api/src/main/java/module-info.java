/**
 * Locksmith's API and SPI. Applications use {@code io.locksmith}; lock providers implement
 * {@code io.locksmith.spi}. The core machinery in {@code io.locksmith.internal} is not exported.
 */
module io.locksmith.api {
    requires org.slf4j;

    exports io.locksmith;
    exports io.locksmith.spi;

    uses io.locksmith.spi.LockProvider;
}
