import HearthCore
