package stats

// RosSec is rosSec for the external tests.
var RosSec = rosSec
