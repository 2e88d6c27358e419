# Placeholder: the nbdkit hdd filter's build rules live here.
