/**
 * Benchmarks of every backend against its floor: the least the backend's own client library can
 * do for one acquire and release, measured in the same run, so that figures are ratios that
 * survive a noisy machine.
 */
package io.locksmith.bench;
