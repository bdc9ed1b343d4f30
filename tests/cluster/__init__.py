"""A real Redis Cluster on loopback, for the cluster tests and the cluster bench."""
