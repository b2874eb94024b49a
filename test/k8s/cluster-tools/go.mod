module dsync.local/clustertools

go 1.25.0

require golang.org/x/sys v0.38.0
