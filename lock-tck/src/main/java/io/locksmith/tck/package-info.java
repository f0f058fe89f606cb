/**
 * The compatibility test kit: the rules every lock provider keeps, as a JUnit 5 suite.
 *
 * <p>A provider's test extends {@link io.locksmith.tck.LockContract} and supplies a
 * {@link io.locksmith.tck.TckSubject}: a factory of independent clients, the provider's
 * {@link io.locksmith.tck.Capabilities} and its {@link io.locksmith.tck.Faults} hooks.
 */
package io.locksmith.tck;
