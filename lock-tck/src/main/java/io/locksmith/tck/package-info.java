/**
 * The compatibility test kit: the rules every lock provider keeps, as a JUnit 5 suite.
 *
 * <p>A provider's test extends {@link io.locksmith.tck.LockContract} and supplies a
 * {@link io.locksmith.tck.TckSubject}: a factory of independent clients, the provider's
 * {@link io.locksmith.tck.Capabilities} and its {@link io.locksmith.tck.Faults} hooks. A hook it
 * cannot supply is declared lacking ({@link io.locksmith.tck.Fault}); one neither supplied nor
 * declared fails the rules that need it.
 */
package io.locksmith.tck;
