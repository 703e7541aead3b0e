import ICUKit
