// Monthly takings: pure sums of online bookings and kiosk (totem) payments, their orders,
// Italian calendar names, euro formatting and the spec's takings data shape.
export * from './month';
export * from './italian-calendar';
export * from './totem-proceed';
export * from './monthly-takings';
export * from './takings-sort';
export * from './takings-data';
