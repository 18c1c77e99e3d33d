-- A location configuration's proximity radius in meters (NULL: the default from its bounds) and,
-- for a place given as coordinates rather than an address, its point.
ALTER TABLE location_configurations ADD COLUMN radius_m INTEGER;
ALTER TABLE location_configurations ADD COLUMN lat DOUBLE PRECISION;
ALTER TABLE location_configurations ADD COLUMN lon DOUBLE PRECISION;
